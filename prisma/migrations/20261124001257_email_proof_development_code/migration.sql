-- AlterEnum
ALTER TYPE "EmailProof" ADD VALUE 'development_code';
