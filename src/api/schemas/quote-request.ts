import { z } from 'zod';

/** Body of the single-instrument quote operation `POST /info/quote/:mode`: `{ token }`. */
export const quoteRequestSchema = z.object({ token: z.number().int().nonnegative() });
