import { TextField, type TextFieldProps } from "@shopify/polaris";
import { useEffect, useState } from "react";

/** The URL's filter texts and their errors, by field name (see app/entry/admin/query-fields.ts). */
export interface FilterQuery {
  raw: Partial<Record<string, string>>;
  errors: Partial<Record<string, string>>;
}

/**
 * A named text field that starts from the URL's text for its name and shows
 * that field's error; its form sends it as is.
 */
export function FilterField({
  query,
  name,
  autoComplete = "off",
  ...props
}: Omit<TextFieldProps, "value" | "onChange" | "name" | "error" | "autoComplete"> & {
  query: FilterQuery;
  name: string;
  autoComplete?: string;
}) {
  const initial = query.raw[name] ?? "";
  const [value, setValue] = useState(initial);
  useEffect(() => setValue(initial), [initial]);
  return (
    <TextField {...props} name={name} autoComplete={autoComplete} error={query.errors[name]} value={value} onChange={setValue} />
  );
}
