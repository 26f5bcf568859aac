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

/** First run: the one-time code the server printed in its log, and the first admin. */
export const setupSchema = z.object({
  code: z
    .string({ error: "Give the setup code from the server's log" })
    .trim()
    .min(1, "Give the setup code from the server's log")
    .max(40, "The setup code is shorter than that"),
  email,
  name,
  password: passwordSchema,
});

export const roleChangeSchema = z.object({ role: roleSchema });

/** PATCH /api/users/{id}: a role, access, or both. */
export const userChangeSchema = z
  .strictObject(
    {
      role: roleSchema.optional(),
      active: z.boolean({ error: "active is true or false" }).optional(),
    },
    { error: "Only role and active can be changed here" },
  )
  .refine((change) => change.role !== undefined || change.active !== undefined, {
    message: "Give a role, active, or both",
    path: ["role"],
  });

export const passwordResetSchema = z.object({ password: passwordSchema });

export const passwordChangeSchema = z
  .object({
    currentPassword: z
      .string({ error: "Give your current password" })
      .min(1, "Give your current password")
      .max(MAX_PASSWORD_LENGTH),
    newPassword: passwordSchema,
  })
  .refine((change) => change.newPassword !== change.currentPassword, {
    message: "Choose a password different from the current one",
    path: ["newPassword"],
  });

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
