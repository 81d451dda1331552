import { TextField, type TextFieldProps } from "@shopify/polaris";
import { useEffect, useState } from "react";

/** A named text field that starts from the URL's value; its form sends it as is. */
export function FilterField({
  initial,
  ...props
}: Omit<TextFieldProps, "value" | "onChange"> & { initial: string | number | undefined }) {
  const [value, setValue] = useState(initial === undefined ? "" : String(initial));
  useEffect(() => setValue(initial === undefined ? "" : String(initial)), [initial]);
  return <TextField {...props} value={value} onChange={setValue} />;
}
