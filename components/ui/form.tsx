"use client";

import { useSyncExternalStore, type FormHTMLAttributes } from "react";
import { cx } from "./primitives";

const never = () => () => {};

/** False in the server's HTML and during hydration, true once React runs the page. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}

/**
 * A form whose fields wait for React: react-hook-form writes its default values into the inputs
 * as it registers them, so text typed into the server's HTML would be overwritten, or spliced
 * with them mid-edit ("700" + "650"), and Enter would submit natively, the fields in the URL.
 * Until hydration the fields are disabled; `className` lays out the fields (it goes on the fieldset).
 */
export function Form({ className, children, ...props }: FormHTMLAttributes<HTMLFormElement>) {
  const hydrated = useHydrated();
  return (
    <form {...props}>
      <fieldset disabled={!hydrated} className={cx("min-w-0", className)}>
        {children}
      </fieldset>
    </form>
  );
}
