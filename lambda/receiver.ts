import { loadConfig } from './config/config.js';
import { createReceiver } from './create-receiver.js';

/**
 * The Lambda entry, and the one module that does work at import: Lambda builds the receiver
 * once per cold start, so a bad configuration throws now, naming the variable, instead of
 * failing callbacks one by one. Everything else builds it with {@link createReceiver}.
 */
export const handler = createReceiver(loadConfig(process.env)).handler;
