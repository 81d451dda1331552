import { useBlocker } from "@remix-run/react";
import type { ShopifyGlobal } from "@shopify/app-bridge-types";
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";

// App Bridge's contextual save bar for a form of the admin: shown while the
// form differs from what is stored, with Save and Discard in the admin's own
// bar (not in the page). While it shows, leaving the page is blocked: the
// admin's navigation by App Bridge itself, the app's own links here, both
// with the admin's "leave page?" confirmation. A router has one blocker:
// LeaveConfirmation (around the admin's pages) holds it for every save bar.

/** Tells LeaveConfirmation whether a save bar's form is changed. */
const ChangedForms = createContext<((id: string, changed: boolean) => void) | null>(null);

interface Props {
  /** Unique on the page. */
  id: string;
  dirty: boolean;
  saving: boolean;
  onSave(): void;
  onDiscard(): void;
}

/** The element before App Bridge's script has run has no methods. */
const showOrHide = (element: UISaveBarElement | null, show: boolean) => {
  if (typeof element?.show !== "function") return;
  void (show ? element.show() : element.hide());
};

const appBridge = (): Partial<ShopifyGlobal> | undefined => (globalThis as { shopify?: Partial<ShopifyGlobal> }).shopify;

export function ContextualSaveBar({ id, dirty, saving, onSave, onDiscard }: Props) {
  const bar = useRef<UISaveBarElement>(null);
  const open = dirty || saving;
  useEffect(() => showOrHide(bar.current, open), [open]);
  useEffect(() => {
    const element = bar.current;
    return () => showOrHide(element, false);
  }, []);
  const changed = useContext(ChangedForms);
  useEffect(() => {
    changed?.(id, dirty);
    return () => changed?.(id, false);
  }, [changed, id, dirty]);
  return (
    <ui-save-bar id={id} ref={bar} discardConfirmation>
      {/* type="button": the bar may sit inside its form, which the buttons must not submit by themselves. */}
      <button type="button" variant="primary" onClick={onSave} loading={saving ? "" : undefined} disabled={saving}>
        Save
      </button>
      <button type="button" onClick={onDiscard} disabled={saving}>
        Discard
      </button>
    </ui-save-bar>
  );
}

/**
 * The app's own navigation (a Link, a redirect) away from a changed form
 * waits for the merchant's answer to the admin's leave confirmation; no
 * answer, no navigation.
 */
export function LeaveConfirmation({ children }: { children: ReactNode }) {
  const [changedForms, setChangedForms] = useState<ReadonlySet<string>>(new Set());
  const mark = useCallback((id: string, changed: boolean) => {
    setChangedForms((forms) => {
      if (forms.has(id) === changed) return forms;
      const next = new Set(forms);
      if (changed) next.add(id);
      else next.delete(id);
      return next;
    });
  }, []);
  const dirty = changedForms.size > 0;
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (blocker.state !== "blocked") return;
    const confirm = appBridge()?.saveBar?.leaveConfirmation;
    if (!confirm) {
      // No App Bridge (the page opened outside the admin): the browser's own question.
      if (window.confirm("Leave this page? Your changes are not saved.")) blocker.proceed();
      else blocker.reset();
      return;
    }
    let current = true;
    void confirm().then(() => current && blocker.proceed());
    return () => {
      current = false;
    };
  }, [blocker]);
  return <ChangedForms.Provider value={mark}>{children}</ChangedForms.Provider>;
}
