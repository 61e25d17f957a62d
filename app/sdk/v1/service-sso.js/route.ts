// {BASE_URL}/sdk/v1/service-sso.js — the <service-sso-button> script developers embed: public, any
// origin, cached for good under its ?v= version.
import { ssoScriptResponse } from "@/lib/sdk/sso-script";

export const GET = (req: Request) => ssoScriptResponse(req);
export const HEAD = (req: Request) => ssoScriptResponse(req);
