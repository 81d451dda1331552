import { useLocation } from "@remix-run/react";
import { useCallback } from "react";

/**
 * The query parameters Shopify opens an embedded app with. Links and GET forms
 * carry them on, so a page also loads where App Bridge can't add its session
 * token header (e.g. a plain browser); App Bridge's header wins when present.
 */
export const EMBEDDED_PARAMS = ["embedded", "shop", "host", "id_token", "locale"] as const;

function embeddedParams(search: string): [string, string][] {
  const current = new URLSearchParams(search);
  return EMBEDDED_PARAMS.flatMap((name) => {
    const value = current.get(name);
    return value ? [[name, value] as [string, string]] : [];
  });
}

/** Builds app URLs that keep the embedded parameters; `undefined` and "" values are left out. */
export function useEmbeddedHref() {
  const { search } = useLocation();
  return useCallback(
    (path: string, params: Record<string, string | number | undefined | null> = {}) => {
      const [pathname, existing = ""] = path.split("?");
      const query = new URLSearchParams(existing);
      for (const [name, value] of Object.entries(params)) {
        if (value !== undefined && value !== null && value !== "") query.set(name, String(value));
      }
      for (const [name, value] of embeddedParams(search)) if (!query.has(name)) query.set(name, value);
      const text = query.toString();
      return text ? `${pathname}?${text}` : pathname;
    },
    [search]
  );
}

/** Hidden inputs that keep the embedded parameters through a GET form. */
export function EmbeddedParamsFields() {
  const { search } = useLocation();
  return (
    <>
      {embeddedParams(search).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}
