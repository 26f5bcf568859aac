import "server-only";
import type { Db } from "@/lib/db/client";
import type { Actor } from "./actor";

// Who wrote a revision, an annotation, an upload or a decision is stored as text when it happens
// (an email, "email (token NAME)", "NAME (email)" for annotations, or a system name), so it
// outlives the person. Shown to a viewer it is:
//  - to a signed-in person or a token: as stored, email and token name included;
//  - to an anonymous viewer (LB_ANONYMOUS_VIEW), and in answers cached for every viewer alike: the
//    person's display name, "NAME (API token)" for a token (its own name withheld), a system's
//    name as is. An email with no account behind it any more reads as "a former user".

const EMAIL = /[^\s()<>,"]+@[^\s()<>,"]+/;

export type AuthorLabel = (stored: string) => string;

const AS_STORED: AuthorLabel = (stored) => stored;

/** Whether the viewer sees authors' emails: anyone signed in (or the app itself), not nobody. */
export const seesEmails = (viewer: Actor | undefined): boolean => viewer !== undefined && viewer.kind !== "anonymous";

/**
 * How `viewer` reads the authors among `stored`; no viewer means an answer every viewer shares,
 * which gets names only. One query for the names, none when the viewer sees emails.
 */
export async function authorLabels(db: Db, viewer: Actor | undefined, stored: Iterable<string>): Promise<AuthorLabel> {
  if (seesEmails(viewer)) return AS_STORED;
  const emails = [...new Set([...stored].flatMap((s) => EMAIL.exec(s)?.[0] ?? []))];
  const names = new Map(
    emails.length === 0
      ? []
      : (await db.user.findMany({ where: { email: { in: emails } }, select: { email: true, name: true } })).map(
          (u) => [u.email, u.name.trim()] as const,
        ),
  );
  return (text) => {
    const email = EMAIL.exec(text)?.[0];
    if (!email) return text;
    const name = names.get(email) || "a former user";
    // Anything beside the email is a token's name: shown as a token, not by its name.
    return text.trim() === email ? name : `${name} (API token)`;
  };
}
