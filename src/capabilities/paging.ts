/** Query parameters of paged REST lists (`limit`, `cursor`), as the hand-written routes had them. */
import { z } from 'zod';

export const pageLimitParam = z.coerce.number().int().min(1).max(500).default(50);

export const cursorParam = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,1024}$/, 'must be a nextCursor from a previous page')
  .describe('`nextCursor` of the previous page of the same list (another value is 400)')
  .optional();
