/** One `<option>` per service, its slug as the value: the service pickers' list. */
export function ServiceOptions({ services }: { services: readonly { slug: string; name: string }[] }) {
  return services.map((s) => (
    <option key={s.slug} value={s.slug}>
      {s.name}
    </option>
  ));
}
