export interface KeywordRule {
  id: string;
  keywordsEnabled: boolean;
  keywords: readonly string[];
}

/**
 * The first rule whose keyword appears in the note as a whole word (case-insensitive), so a
 * note like "Fix the website header" suggests the project with the keyword "website".
 */
export function suggestByKeywords<R extends KeywordRule>(note: string, rules: readonly R[]): R | undefined {
  const words = new Set(
    note
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean),
  );
  const text = ` ${note.toLowerCase()} `;
  return rules.find(
    (rule) =>
      rule.keywordsEnabled &&
      rule.keywords.some((k) => {
        const keyword = k.trim().toLowerCase();
        if (!keyword) return false;
        return keyword.includes(' ') ? text.includes(` ${keyword} `) : words.has(keyword);
      }),
  );
}
