import { z } from "zod";

export const syncUserSchema = z.object({
  id: z.string().min(1).max(128),
  email: z.string().max(320).nullish(),
  displayName: z.string().max(256).nullish(),
  photoURL: z.string().max(2048).nullish(),
});
export type SyncUser = z.infer<typeof syncUserSchema>;

export type User = {
  id: string;
  email: string | null;
  displayName: string | null;
  photoURL: string | null;
};
