/** FormData as a plain object for a zod schema: single values as strings, `listFields` as arrays. */
export function formFields(form: FormData, listFields: readonly string[] = []): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key).filter((v): v is string => typeof v === "string");
    fields[key] = listFields.includes(key) ? values : values[0] ?? "";
  }
  for (const key of listFields) fields[key] ??= [];
  return fields;
}

/** The first message per field of a zod error, for inline field errors. */
export function fieldErrorsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}
