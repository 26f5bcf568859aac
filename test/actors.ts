import type { Role } from "@/lib/domain/rights";
import type { Actor } from "@/lib/services/actor";

/** A signed-in user for service-level tests (rights are checked on the actor; no row is needed). */
export function testUser(name: string, role: Role = "editor"): Actor {
  return { kind: "user", id: `test-${name}`, email: `${name}@example.test`, name, role };
}
