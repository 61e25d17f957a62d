// The turn-correlation headers of a turn route (lib/http/turns.ts): read and checked before the
// inputs, echoed on the answer, errors included.
import type { AnswerStep, RequestStep } from "../route-pipeline";
import { readTurnHeaders, TURN_HEADERS } from "../turns";

export const readTurn: RequestStep = (def) =>
  def.turn
    ? (s) => {
        s.turn = readTurnHeaders(s.req);
      }
    : null;

export const echoTurn: AnswerStep = (def) =>
  def.turn
    ? (response, s) => {
        if (!s.turn) return;
        response.headers.set(TURN_HEADERS.conversation, s.turn.conversation);
        if (s.turn.turn !== undefined) response.headers.set(TURN_HEADERS.turn, s.turn.turn);
      }
    : null;
