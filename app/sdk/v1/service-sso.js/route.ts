// {BASE_URL}/sdk/v1/service-sso.js — the <service-sso-button> script developers embed: public, any
// origin, cached for good under its ?v= version. On the API fast path, whose table must hold it ahead of
// /sdk/v1/[file].
import { plainRoute } from "@/lib/http/plain-route";
import { ssoScriptResponse } from "@/lib/sdk/sso-script";

export const GET = plainRoute((req: Request) => ssoScriptResponse(req));
export const HEAD = (req: Request) => ssoScriptResponse(req);
