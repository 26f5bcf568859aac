import { describe, expect, it } from "vitest";
import { ACTIONS, can, decide, parseRoleMap, roleFromClaim, scopesFor, type Action } from "./rights";

// The promises, written out by hand: who may do what, as users and as tokens.
// v = viewer, e = editor, a = admin; a token column lists the scope that unlocks it ("-": none does).
const EXPECTED: Record<Action, [viewer: boolean, editor: boolean, admin: boolean, scope: string]> = {
  read: [true, true, true, "read"],
  "service.create": [false, true, true, "write:budgets"],
  "service.delete": [false, false, true, "-"],
  "examples.add": [false, true, true, "-"],
  "discovery.read": [false, true, true, "read"],
  "histogram.read": [true, true, true, "read"],
  "budget.save": [false, true, true, "write:budgets"],
  "budget.restore": [false, true, true, "write:budgets"],
  "optimization.create": [false, true, true, "write:budgets"],
  "slo.create": [false, true, true, "write:slos"],
  "slo.update": [false, true, true, "write:slos"],
  "slo.delete": [false, true, true, "write:slos"],
  "openslo.import": [false, true, true, "write:slos"],
  "experiment.create": [false, true, true, "write:experiments"],
  "experiment.status": [false, true, true, "write:experiments"],
  "experiment.upload": [false, true, true, "write:experiments"],
  "experiment.import": [false, true, true, "write:experiments"],
  "annotation.create": [false, true, true, "write:annotations"],
  "annotation.delete": [false, true, true, "write:annotations"],
  "token.create": [true, true, true, "-"],
  "token.revoke": [true, true, true, "-"],
  "token.list": [true, true, true, "-"],
  "user.list": [false, false, true, "-"],
  "user.create": [false, false, true, "-"],
  "user.role": [false, false, true, "-"],
  "user.deactivate": [false, false, true, "-"],
  "user.password": [false, false, true, "-"],
  "user.sessions": [false, false, true, "-"],
  "me.password": [true, true, true, "-"],
  "audit.read": [false, false, true, "-"],
  "rules.detail": [false, false, true, "read"],
  "alert.receive": [false, false, false, "-"],
};

const ALL_SCOPES = ["read", "write:budgets", "write:slos", "write:experiments", "write:annotations"];

describe("rights table", () => {
  it.each(Object.entries(EXPECTED))("%s", (action, [viewer, editor, admin, scope]) => {
    const a = action as Action;
    expect([can({ role: "viewer" }, a), can({ role: "editor" }, a), can({ role: "admin" }, a)]).toEqual([
      viewer,
      editor,
      admin,
    ]);
    // An admin's token: allowed exactly with the unlocking scope.
    for (const s of ALL_SCOPES) expect(can({ role: "admin", scopes: [s] }, a), `${action} with ${s}`).toBe(s === scope);
  });

  it("has no action the hand-written table does not know", () => {
    expect(Object.keys(ACTIONS).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it("a token never does more than its owner", () => {
    expect(can({ role: "viewer", scopes: ALL_SCOPES }, "budget.save")).toBe(false);
    expect(can({ role: "editor", scopes: ALL_SCOPES }, "service.delete")).toBe(false);
  });

  it("says why, in words a person understands", () => {
    expect(decide({ role: "viewer" }, "budget.save")).toEqual({
      allowed: false,
      reason: "Editors and admins can save budgets; you are a viewer.",
    });
    expect(decide({ role: "editor" }, "service.delete")).toEqual({
      allowed: false,
      reason: "Admins can delete services; you are an editor.",
    });
    expect(decide({ role: "admin", scopes: ["read"] }, "slo.create")).toEqual({
      allowed: false,
      reason: "This API token lacks the write:slos scope needed to create SLOs.",
    });
    expect(decide({ role: "admin", scopes: ALL_SCOPES }, "user.role")).toEqual({
      allowed: false,
      reason: "API tokens cannot change roles; sign in instead.",
    });
  });

  it("lets a role hand its tokens only the scopes it can use", () => {
    expect(scopesFor("viewer")).toEqual(["read"]);
    expect(scopesFor("editor")).toEqual(ALL_SCOPES);
    expect(scopesFor("admin")).toEqual(ALL_SCOPES);
  });
});

describe("parseRoleMap", () => {
  it("reads group=role entries, spaces and empty entries aside", () => {
    expect([...parseRoleMap(" sre-leads = editor, platform-admins=admin,,")]).toEqual([
      ["sre-leads", "editor"],
      ["platform-admins", "admin"],
    ]);
    expect(parseRoleMap("").size).toBe(0);
    expect([...parseRoleMap("a=admin,b=viewer,a=admin")]).toEqual([
      ["a", "admin"],
      ["b", "viewer"],
    ]);
  });

  it.each(["sre-leads=Editor", "a:admin", "=admin", "x=root", "a=b=admin", "admins=", "admin"])(
    "refuses %s, naming it",
    (entry) => {
      expect(() => parseRoleMap(`ok=viewer, ${entry}`)).toThrow(`"${entry}" is not group=role`);
    },
  );

  it.each([",", " , ,", ",,,"])("refuses %j, a map of commas only (it would make raw role names count)", (map) => {
    expect(() => parseRoleMap(map)).toThrow("has no group=role entry");
  });

  it("refuses a group given two roles", () => {
    expect(() => parseRoleMap("a=viewer,a=admin")).toThrow(`"a=admin" gives the group "a" a second role`);
  });
});

describe("roleFromClaim", () => {
  const map = "sre-leads=editor, platform-admins=admin";
  it.each([
    // With a map set, a group literally called "admin" or "editor" grants nothing.
    ["a role's own name, with a map set", "editor", "viewer"],
    ["a group called admin, with a map set", ["admin", "staff"], "viewer"],
    ["a mapped group", ["staff", "sre-leads"], "editor"],
    ["the highest of several", ["sre-leads", "platform-admins", "editor"], "admin"],
    ["nothing known", ["staff"], "viewer"],
    ["no claim", undefined, "viewer"],
    ["a non-string claim", { admin: true }, "viewer"],
  ])("%s", (_, claim, role) => {
    expect(roleFromClaim(claim, map, "viewer")).toBe(role);
  });

  it("refuses a map with an entry that is not group=viewer|editor|admin, naming the entry, rather than read part of it", () => {
    for (const entry of ["sre-leads=Editor", "a:admin", "=admin", "x=root", "a=b=admin", "admins="])
      expect(() => roleFromClaim(["admin", "a"], `b=viewer,${entry}`, "viewer")).toThrow(`"${entry}"`);
  });

  it("falls back to the configured default role", () => {
    expect(roleFromClaim(["staff"], map, "editor")).toBe("editor");
    expect(roleFromClaim(["viewer"], map, "editor")).toBe("editor");
  });

  it("without a map, a claim holding a role's own name grants it", () => {
    expect(roleFromClaim(["editor", "staff"], "", "viewer")).toBe("editor");
    // The default is the floor only when nothing matches.
    expect(roleFromClaim(["viewer"], "", "editor")).toBe("viewer");
  });
});
