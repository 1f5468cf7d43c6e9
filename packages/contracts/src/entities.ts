import { z } from 'zod';

/** Entity shapes of SPEC section 3 as they travel in call responses. */

export const companyRef = z.object({ id: z.string(), name: z.string() });

/** The signed-in user as stored locally under `userInfo` (token included). */
export const userSchema = z.object({
  u_id: z.string(),
  nick: z.string(),
  phone: z.string(),
  email: z.string(),
  company: z.string(),
  in_com: companyRef,
  fun_list: z.array(z.string()),
  state: z.number().int(),
  start_time: z.number().int(),
  end_time: z.number().int(),
  team: z.string(),
  notes: z.string(),
  /** Never the password itself: always empty in responses (kept for the SPEC's field list). */
  password: z.literal(''),
  token: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const functionItemSchema = z.object({
  name: z.string(),
  name_en: z.string(),
  fun_id: z.string(),
  description: z.string(),
  state: z.number().int(),
  notes: z.string(),
});
export type FunctionItem = z.infer<typeof functionItemSchema>;
