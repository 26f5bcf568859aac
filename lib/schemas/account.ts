import { z } from "zod";
import { ROLES, SCOPES } from "@/lib/domain/rights";
import { nameSchema, storable } from "./text";

// Accounts, shared by the forms and the services that check them again.

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 128;

export const passwordSchema = storable(
  z
    .string({ error: "Choose a password" })
    .min(MIN_PASSWORD_LENGTH, `At least ${MIN_PASSWORD_LENGTH} characters`)
    .max(MAX_PASSWORD_LENGTH, `At most ${MAX_PASSWORD_LENGTH} characters`),
  "The password",
);

const email = z
  .string({ error: "Give an email address" })
  .trim()
  .toLowerCase()
  .max(254, "At most 254 characters")
  .pipe(z.email("Not an email address"));

const name = nameSchema("The name", 120);

export const roleSchema = z.enum(ROLES, { error: `The role is one of ${ROLES.join(", ")}` });

export const newUserSchema = z.object({ email, name, role: roleSchema, password: passwordSchema });

export const setupSchema = z.object({ email, name, password: passwordSchema });

export const roleChangeSchema = z.object({ role: roleSchema });

export const signInSchema = z.object({
  email: z.string().trim().min(1, "Give your email address"),
  password: z.string().min(1, "Give your password"),
});

export const createTokenSchema = z.object({
  name: nameSchema("The token's name", 80),
  scopes: z
    .array(z.enum(SCOPES, { error: `Scopes are ${SCOPES.join(", ")}` }))
    .min(1, "Choose at least one scope")
    .max(SCOPES.length)
    .refine((scopes) => new Set(scopes).size === scopes.length, "A scope is listed twice"),
  expiresInDays: z
    .number({ error: "expiresInDays is a number of days" })
    .int("expiresInDays is a whole number of days")
    .min(1, "At least 1 day")
    .max(365, "At most 365 days")
    .default(90),
});
