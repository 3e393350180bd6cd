// The app's database client: DATABASE_URL is set in every process of the project's sandbox.
import postgres from "postgres";

if (!process.env.DATABASE_URL) {
  throw new Error("DATABASE_URL is not set: the app needs the project's database. Set it, then start the app again.");
}

export const sql = postgres(process.env.DATABASE_URL, { max: 5, onnotice: () => {} });
