/** Quoting names for SQL text the server writes itself (the user's names are never trusted as code). */
export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const quoteTable = (schema: string, table: string) => `${quoteIdent(schema)}.${quoteIdent(table)}`;
