// A real OpenID Connect provider (node-oidc-provider, certified) for the end-to-end tests' single
// sign-on: its own login and consent pages, a confidential client for the app, and people whose
// `groups` claim maps to roles.
//
//   tsx test/oidc/provider.ts --port 9574 --app http://127.0.0.1:3210
import { parseArgs } from "node:util";
import Provider from "oidc-provider";

const { values } = parseArgs({
  options: { port: { type: "string", default: "9574" }, app: { type: "string", default: "http://127.0.0.1:3210" } },
});

export const OIDC_CLIENT = { id: "latency-budgets-e2e", secret: "e2e-client-secret-0123456789abcdef" };

/** Who can sign in at this provider: the login name is the account id. */
const PEOPLE: Record<string, { name: string; groups: string[] }> = {
  "sso-lead": { name: "Sam SSO Lead", groups: ["staff", "latency-leads"] },
  "sso-viewer": { name: "Val SSO Viewer", groups: ["staff"] },
  // In a group that happens to be called "admin": with a role map set, that must grant nothing.
  "sso-mallory": { name: "Mal SSO", groups: ["staff", "admin"] },
  // Moved between groups by the tests (POST /test/groups/sso-mover?groups=a,b), as a directory would.
  "sso-mover": { name: "Mo SSO Mover", groups: ["staff"] },
};

const issuer = `http://127.0.0.1:${values.port}`;
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: OIDC_CLIENT.id,
      client_secret: OIDC_CLIENT.secret,
      redirect_uris: [`${values.app}/api/auth/callback/oidc`],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_post",
    },
  ],
  scopes: ["openid", "email", "profile", "groups"],
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"], groups: ["groups"] },
  async findAccount(_ctx, id) {
    const person = PEOPLE[id];
    if (!person) return undefined;
    return {
      accountId: id,
      claims: async () => ({
        sub: id,
        email: `${id}@sso.example`,
        email_verified: true,
        name: person.name,
        groups: person.groups,
      }),
    };
  },
  cookies: { keys: ["e2e-oidc-cookie-key-0123456789"] },
  features: { devInteractions: { enabled: true } },
});
provider.proxy = false;
// The tests' side door: change someone's groups at the "directory" between two sign-ins.
provider.use(async (ctx, next) => {
  const match = /^\/test\/groups\/([a-z-]+)$/.exec(ctx.path);
  if (ctx.method !== "POST" || !match) return next();
  const person = PEOPLE[match[1]!];
  if (!person) return void (ctx.status = 404);
  person.groups = String(ctx.query.groups ?? "")
    .split(",")
    .filter(Boolean);
  ctx.body = { groups: person.groups };
});
provider.listen(Number(values.port), () => console.log(`OIDC provider at ${issuer}`));
