import "server-only";
import { createHash, randomInt } from "node:crypto";
import type { Db } from "@/lib/db/client";
import { deleteSetupCodes, insertSetupCode, isSetupCodeValid } from "@/lib/db/setup-codes";
import { forgetSignInFailures, releaseSignInAttempt, reserveSignInAttempt } from "@/lib/db/sign-in-failures";
import { insertFirstUser } from "@/lib/db/users";
import { AppError } from "@/lib/errors";
import { limiterKey } from "@/lib/net/client-address";
import { setupSchema } from "@/lib/schemas/account";
import { parseInput } from "@/lib/schemas/parse";
import { ANONYMOUS } from "../actor";
import { recordAudit } from "../audit";
import { SIGN_IN_LIMITS } from "./sign-in";
import { markSetUp, needsSetup, newPasswordUser, userView, type UserView } from "./users";

// First run: the first admin is created by whoever can read the server's log, not by whoever
// reaches an empty app first. The launcher prints a one-time code (valid a day) when nobody has
// an account yet; the setup page asks for it. Wrong codes count against the address's sign-in limit.

export const SETUP_CODE_HOURS = 24;
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"; // no 0/O, 1/I/L
const SETUP_FAILURE_KEY = "(first-run setup)";

const hashOf = (code: string) => createHash("sha256").update(code.replace(/[\s-]/g, "").toUpperCase()).digest("hex");

/** A new code for the first-run setup, or null when someone already has an account. */
export async function issueSetupCode(db: Db): Promise<string | null> {
  if (!(await needsSetup(db))) return null;
  const raw = Array.from({ length: 12 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
  await insertSetupCode(db, hashOf(raw), new Date(Date.now() + SETUP_CODE_HOURS * 3600_000));
  return raw.match(/.{4}/g)!.join("-");
}

/** Creates the first admin, with a valid setup code, while nobody exists. */
export async function setUpFirstAdmin({
  db,
  input,
  address,
}: {
  db: Db;
  input: unknown;
  address: string;
}): Promise<UserView> {
  const data = parseInput(setupSchema, input, "The first admin");
  const closed = () => new AppError("CONFLICT", "The app is already set up: sign in instead.");
  if (!(await needsSetup(db))) throw closed();
  const now = new Date();
  const since = new Date(now.getTime() - SIGN_IN_LIMITS.windowMinutes * 60_000);
  // Reserved before the code is checked, so parallel guesses get no more checks than the limit.
  const reserved = await reserveSignInAttempt(db, {
    email: SETUP_FAILURE_KEY,
    address: limiterKey(address),
    at: now,
    since,
    limits: { perAccountAndAddress: SIGN_IN_LIMITS.perAddress, perAddress: SIGN_IN_LIMITS.perAddress },
  });
  if (reserved.id === null)
    throw new AppError(
      "TOO_MANY_REQUESTS",
      `Too many wrong setup codes: wait ${SIGN_IN_LIMITS.windowMinutes} minutes.`,
    );
  if (!(await isSetupCodeValid(db, hashOf(data.code), now))) {
    await forgetSignInFailures(db, since);
    throw new AppError("VALIDATION_FAILED", "That setup code is not valid.", {
      code: "Not the code in the server's log (or it expired: restart the app for a new one)",
    });
  }
  await releaseSignInAttempt(db, reserved.id);
  const user = await newPasswordUser({ ...data, role: "admin" });
  const row = await db.$transaction(async (tx) => {
    const inserted = await insertFirstUser(tx, user);
    if (!inserted) return null;
    await deleteSetupCodes(tx);
    await recordAudit(tx, ANONYMOUS, {
      action: "user.setup",
      target: inserted.email,
      summary: `Set up the app with ${inserted.email} as the first admin`,
      address,
    });
    return inserted;
  });
  if (!row) throw closed();
  markSetUp();
  return userView(row);
}
