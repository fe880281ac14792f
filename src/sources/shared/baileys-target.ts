import { objectAt, readString } from './payload-values.js';

/**
 * The message a Baileys message (WASender, Evolution API) is about: a `reactionMessage`'s key,
 * or a `protocolMessage`'s (edits and deletions, bare or inside `editedMessage`).
 */
export const baileysTarget = (message: unknown): string | null => readString(objectAt(message, 'reactionMessage', 'key')?.id)
  ?? readString(objectAt(message, 'protocolMessage', 'key')?.id)
  ?? readString(objectAt(message, 'editedMessage', 'message', 'protocolMessage', 'key')?.id);
