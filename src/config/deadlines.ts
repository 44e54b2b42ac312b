/**
 * Every request is answered within 5 s of arriving whole (the README's promise), measured by the
 * client, so the edge's backstop answers a little earlier; what outlives a request (an
 * Idempotency-Key's claim) is counted from it. Here, importing nothing, so that the HTTP edge and
 * the data layer both read it without one depending on the other.
 */
export const ANSWER_DEADLINE_MS = 4_500;
