/** A service-supplied link the app may render: an absolute http(s) URL, nothing else (no javascript:, data:, ...). */
export function webUrlOrNull(text: string | null | undefined): string | null {
  if (!text || !/^https?:\/\/\S+$/i.test(text)) return null;
  try {
    return /^https?:$/.test(new URL(text).protocol) ? text : null;
  } catch {
    return null;
  }
}
