// oidc-provider ships no type declarations; the tests use it as an untyped stand-in provider.
declare module "oidc-provider";
