// smtp-server ships no type declarations; the tests use it as an untyped local mail server.
declare module "smtp-server";
