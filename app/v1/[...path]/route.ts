// Any /v1 path no route owns: the API's JSON 404 (not Next.js's page), whichever server answers.
// proxy.ts answers such paths (and wrong methods of known ones) first; this stays for a request it lets by.
import { apiPathError } from "@/lib/http/api-routes";

const notFound = async () => apiPathError(null);

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
