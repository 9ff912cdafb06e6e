import type { OrderDetailHold, OrderDetailMessage, TransferInNote } from '../api/records/index.ts';
import { codePart, contentKey, instantPart, type KeyClock, textPart } from './contentKey.ts';

/**
 * The keys of child records without an id of their own (contentKey.ts): what identifies each, read
 * for its meaning. A hold is its name and creation time, a message its time, type and text, an IN
 * note its type, time and text. Shipment tracking events: src/events/trackingEventKey.ts.
 */

/** `order_holds.hold_key`. */
export function holdKey(hold: OrderDetailHold, clock: KeyClock): string {
  return contentKey([codePart(hold.holdName), instantPart(hold.creationDate, clock)]);
}

/** `order_messages.message_key`. */
export function messageKey(message: OrderDetailMessage, clock: KeyClock): string {
  return contentKey([
    instantPart(message.messageTime, clock),
    codePart(message.messageType),
    textPart(message.message),
  ]);
}

/** `transfer_in_notes.note_key`. */
export function noteKey(note: TransferInNote, clock: KeyClock): string {
  return contentKey([
    codePart(note.typeCode),
    instantPart(note.noteTimestamp, clock),
    textPart(note.noteText),
  ]);
}
