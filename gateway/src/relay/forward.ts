import type { Request, Response } from 'express';

/** A request handed on to dms-svc's HTTP server, settled once its response has finished or closed. */
export type Forward = (req: Request, res: Response) => Promise<void>;
