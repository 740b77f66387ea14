// The catalogue: every case, in id order. Ids are only ever appended, never reused.
import { catalogueProblems, compareIds, type Case } from '../case.js';
import { telemetryCases } from './01-telemetry.js';
import { attributeUploadCases } from './02-attributes.js';
import { attributeReadCases } from './03-attribute-read.js';
import { attributeUpdateCases } from './04-attribute-updates.js';
import { rpcPollCases } from './05-rpc-poll.js';
import { rpcReplyCases } from './06-rpc-reply.js';
import { clientRpcCases } from './07-client-rpc.js';
import { claimCases } from './08-claim.js';
import { provisionCases } from './09-provision.js';
import { firmwareCases } from './10-firmware.js';
import { authCases } from './auth.js';
import { errorCases } from './errors.js';
import { isolationCases } from './isolation.js';
import { keyFilterCases } from './key-filters.js';
import { persistentRpcCases } from './persistent-rpc.js';
import { pollBoundCases } from './poll-bounds.js';
import { rpcRoutingCases } from './rpc-routing.js';
import { robustnessCases } from './robustness.js';

export const catalogue: readonly Case[] = [
  ...telemetryCases,
  ...attributeUploadCases,
  ...attributeReadCases,
  ...attributeUpdateCases,
  ...rpcPollCases,
  ...rpcReplyCases,
  ...clientRpcCases,
  ...claimCases,
  ...provisionCases,
  ...firmwareCases,
  ...authCases,
  ...errorCases,
  ...isolationCases,
  ...keyFilterCases,
  ...pollBoundCases,
  ...persistentRpcCases,
  ...rpcRoutingCases,
].sort((a, b) => compareIds(a.id, b.id));

/** Group 7: run only with `dhi conform --robustness` (slow, hostile, bounded). */
export const robustness: readonly Case[] = [...robustnessCases].sort((a, b) => compareIds(a.id, b.id));

const problems = catalogueProblems([...catalogue, ...robustness]);
if (problems.length) throw new Error(`conformance catalogue:\n- ${problems.join('\n- ')}`);
