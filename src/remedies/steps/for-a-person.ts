/**
 * Placeholders a person fills in when they act (the guide writes `{base_url}`): explained, not shown raw,
 * wherever a checklist is shown (explain, the plan, the step's "Your turn"). The dashboard's address
 * is the person's own, known to them and not to the bot. No package imported: `explain` loads this.
 */
const placeholders: Record<string, string> = { base_url: '<your dashboard URL>' };
export const forAPerson = (text: string): string => text.replace(/\{([a-z_]+)\}/g, (m, name: string) => placeholders[name] ?? m);
