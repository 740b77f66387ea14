// A persistent one-way RPC answers 200 {"rpcId": "<uuid>"} at once, where the document declares the
// empty 200 of a one-way command: OpenAPI cannot give an empty and a JSON body under one status.
// Both response checkers (the suite's and the server tests') accept this answer through this test.
const ONE_WAY = new Set(['sendOneWayRpcV1', 'sendOneWayRpcV2']);
const PERSISTENT_ANSWER = /^\{"rpcId":"[0-9a-f-]{36}"\}$/;

export function isPersistentOneWayAnswer(operationId: string, text: string): boolean {
  return ONE_WAY.has(operationId) && PERSISTENT_ANSWER.test(text);
}
