// The self-contained HTML report: inline CSS and JS, nothing fetched. Summary per agent, an agents
// x cases matrix when several agents ran into the directory, filters, and each case's transcript.
import { compareIds, OUTCOMES, type CaseRecord } from '../case.js';
import { SEVERITIES } from '../verdict.js';
import type { Exchange } from '../client.js';
import type { RunReport } from './json.js';
import { jwtLine, needsRepro, reproScript } from './repro.js';

export function escapeHtml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": '#39' }[c]};`);
}

const h = (value: unknown) => escapeHtml(typeof value === 'string' ? value : JSON.stringify(value, null, 2) ?? 'undefined');

const CSS = `
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em;color:#1d232a;background:#fbfbfc}
h1{font-size:1.4em;margin:0 0 .3em}h2{font-size:1.1em;margin:1.4em 0 .5em}
table{border-collapse:collapse;margin:.4em 0}th,td{border:1px solid #d5d9de;padding:.25em .55em;text-align:left;vertical-align:top}
th{background:#eef1f4}.num{text-align:right}
.badge{display:inline-block;min-width:4.2em;text-align:center;border-radius:3px;padding:0 .35em;font-weight:600;font-size:.85em}
.pass{background:#d7f5dd;color:#13581f}.fail{background:#fbd9d9;color:#8a1414}.skipped{background:#ececec;color:#555}.error{background:#fde9c8;color:#7a4a00}
.notrun{background:#fbd9d9;font-weight:600}
.expected{background:#e4e9f7;color:#2b3f74}.unexpected{background:#8a1414;color:#fff}
.sev{font-size:.8em;color:#555;margin:0 .4em}
details.case{border:1px solid #d5d9de;border-radius:4px;margin:.3em 0;background:#fff}
details.case>summary{cursor:pointer;padding:.3em .5em}
details.case>div{padding:.2em .9em .7em}
pre{background:#f3f5f7;padding:.5em;overflow:auto;max-height:26em;white-space:pre-wrap;word-break:break-all;margin:.3em 0}
.exchange{border-left:3px solid #9fb3c8;padding-left:.6em;margin:.6em 0}
.control{border-left-color:#c8b59f}
#filters label{margin-right:1em}
.hidden{display:none}
`;

const SCRIPT = `
(function(){
  function apply(){
    var on = {};
    document.querySelectorAll('#filters input').forEach(function(i){ on[i.value] = i.checked; });
    var agent = document.getElementById('agent');
    document.querySelectorAll('.run').forEach(function(run){
      run.classList.toggle('hidden', !!agent && run.dataset.agent !== agent.value);
    });
    var shown = 0;
    document.querySelectorAll('details.case').forEach(function(c){
      var visible = on[c.dataset.outcome] && on[c.dataset.severity];
      c.classList.toggle('hidden', !visible);
      if (visible && !c.closest('.run').classList.contains('hidden')) shown++;
    });
    document.getElementById('shown-count').textContent = String(shown);
  }
  document.querySelectorAll('#filters input, #agent').forEach(function(el){ el.addEventListener('change', apply); });
  apply();
})();
`;

function exchangeHtml(e: Exchange): string {
  const req = e.request;
  const res = e.response;
  const headers = (hs: Record<string, string>) => Object.entries(hs).map(([k, v]) => `${k}: ${v}`).join('\n');
  return `<div class="exchange ${e.channel}">
<div><b>${h(e.channel)}</b>${e.phase && e.phase !== 'case' ? ` <small>(${h(e.phase)})</small>` : ''}${e.operationId ? ` <code>${h(e.operationId)}</code>` : ''} — ${e.durationMs} ms</div>
<pre>${h(`${req.method} ${req.url}\n${headers(req.headers)}${req.body !== undefined ? `\n\n${req.body}` : ''}`)}</pre>
${res ? `<pre>${h(`HTTP ${res.status}\n${headers(res.headers)}${res.body ? `\n\n${res.body}` : ''}`)}</pre>` : `<pre>${h(e.error ?? 'no response')}</pre>`}
<pre>${h(e.curl)}</pre>
</div>`;
}

/**
 * What the filters and badges call a record: a known departure (--expect) is `expected`, apart
 * from the failures; a listed case that ended otherwise keeps its outcome and an `unexpected` badge.
 */
const shownOutcome = (r: CaseRecord): string => (r.expected?.held ? 'expected' : r.outcome);

function expectationHtml(r: CaseRecord): string {
  if (!r.expected) return '';
  const { outcome, reason, held } = r.expected;
  return held
    ? `<p class="expectation">Expected ${h(outcome)} (known departure): ${h(reason)}</p>`
    : `<p class="expectation"><span class="badge unexpected">unexpected</span> the expectations file says ${h(outcome)} (${h(reason)}); the case ended ${h(r.outcome)}${r.outcome === 'pass' ? ': remove its entry' : ''}</p>`;
}

function caseHtml(run: RunReport, r: CaseRecord): string {
  const failures = r.failures.length
    ? `<table><tr><th>severity</th><th>check</th><th>expected</th><th>actual</th></tr>${r.failures
        .map((f) => `<tr><td>${h(f.severity ?? r.severity)}</td><td>${h(f.check)}${f.message ? `<br><small>${h(f.message)}</small>` : ''}</td><td><pre>${h(f.expected)}</pre></td><td><pre>${h(f.actual)}</pre></td></tr>`)
        .join('')}</table>`
    : '';
  const notes = [r.reason, ...(r.notes ?? [])].filter(Boolean).map((n) => `<li>${h(n)}</li>`).join('');
  const unexpected = r.expected && !r.expected.held ? ' <span class="badge unexpected">unexpected</span>' : '';
  return `<details class="case" id="case-${h(r.id)}" data-outcome="${shownOutcome(r)}" data-severity="${r.severity}">
<summary><span class="badge ${shownOutcome(r)}">${shownOutcome(r)}</span>${unexpected}<span class="sev">${h(r.failedSeverity && r.failedSeverity !== r.severity ? `${r.severity}, failed ${r.failedSeverity}` : r.severity)}</span><b>${h(r.id)}</b> ${h(r.title)} <small>(${r.durationMs} ms)</small></summary>
<div><p>${h(r.requirement)}</p>${expectationHtml(r)}${failures}${notes ? `<ul>${notes}</ul>` : ''}
${needsRepro(r) ? `<h3>Reproduce</h3><p><small>also in <code>repro/${h(r.id)}.sh</code></small></p><pre class="repro">${h(reproScript(run, r))}</pre>` : ''}
<h3>Transcript (${r.transcript.length})</h3>${r.transcript.map(exchangeHtml).join('\n')}</div>
</details>`;
}

function summaryTable(runs: RunReport[]): string {
  const rows = runs.map((run) => {
    const c = run.counts;
    return `<tr><td>${h(run.agent)}</td><td>${h(run.target)}</td><td class="num">${c.total}</td><td class="num">${c.pass}</td><td class="num">${c.fail}</td><td class="num">${c.mustFailures}</td><td class="num">${c.shouldFailures}</td><td class="num">${c.skipped}</td><td class="num${c.mustNotRun ? ' notrun' : ''}">${c.mustNotRun ?? 0}</td><td class="num">${c.error}</td><td class="num">${c.expected ?? 0}</td><td class="num${c.unexpected ? ' notrun' : ''}">${c.unexpected ?? 0}</td><td class="num">${(run.durationMs / 1000).toFixed(1)} s</td><td class="num">${run.exitCode}</td></tr>`;
  });
  return `<table id="summary"><tr><th>agent</th><th>target</th><th>cases</th><th>pass</th><th>fail</th><th>MUST failed</th><th>SHOULD failed</th><th>skipped</th><th>MUST not run</th><th>error</th><th title="known departures: cases that ended as the --expect file says">expected</th><th title="cases listed in the --expect file that ended otherwise">unexpected</th><th>duration</th><th>exit</th></tr>${rows.join('')}</table>`;
}

function matrixTable(runs: RunReport[]): string {
  const byAgent = runs.map((run) => new Map(run.cases.map((r) => [r.id, r])));
  const cases = new Map<string, CaseRecord>();
  for (const run of runs) for (const r of run.cases) if (!cases.has(r.id)) cases.set(r.id, r);
  const ids = [...cases.keys()].sort(compareIds);
  const head = `<tr><th>case</th><th>severity</th><th>title</th>${runs.map((run) => `<th>${h(run.agent)}</th>`).join('')}</tr>`;
  const rows = ids.map((id) => {
    const cells = byAgent.map((m) => {
      const r = m.get(id);
      return r ? `<td><span class="badge ${shownOutcome(r)}">${shownOutcome(r)}</span></td>` : '<td>—</td>';
    });
    const c = cases.get(id)!;
    return `<tr><td>${h(id)}</td><td>${h(c.severity)}</td><td>${h(c.title)}</td>${cells.join('')}</tr>`;
  });
  return `<h2>Agents × cases</h2><table id="matrix">${head}${rows.join('')}</table>`;
}

/** The MUST cases of a run that did not run, by reason: a run that did not test is not a pass. */
function notRunHtml(run: RunReport): string {
  const groups = run.mustNotRun ?? [];
  if (groups.length === 0) return '';
  const verdict = run.allowSkips ? 'accepted with --allow-skips' : 'this fails the run';
  const items = groups.map((g) => `<li>${g.ids.length}: ${h(g.reason)} <small>(${g.ids.map((id) => `<a href="#case-${h(id)}">${h(id)}</a>`).join(', ')})</small></li>`).join('');
  return `<div class="must-not-run" data-agent="${h(run.agent)}"><p><b>${h(run.agent)}: ${run.counts.mustNotRun} MUST cases did not run</b> (${verdict}):</p><ul>${items}</ul></div>`;
}

/** The entries of a run's --expect file to add, change or remove, with links to the cases. */
function expectationsHtml(run: RunReport): string {
  const v = run.expectations;
  if (!v) return '';
  const links = (ids: string[]) => ids.map((id) => `<a href="#case-${h(id)}">${h(id)}</a>`).join(', ');
  const items = [
    v.add.length ? `<li>add (new failures): ${links(v.add)}</li>` : '',
    v.change.length ? `<li>change (another outcome): ${links(v.change)}</li>` : '',
    v.remove.length ? `<li>remove (these pass now): ${links(v.remove)}</li>` : '',
  ].join('');
  return `<div class="expectations" data-agent="${h(run.agent)}"><p><b>${h(run.agent)}</b>: expectations <code>${h(v.file)}</code>, ${v.held.length} known departures held${items ? '; to bring the file up to date:' : '.'}</p>${items ? `<ul>${items}</ul>` : ''}</div>`;
}

export function reportHtml(runs: RunReport[], generatedAt = new Date().toISOString()): string {
  const caseIds = new Set(runs.flatMap((run) => run.cases.map((r) => r.id)));
  const filters = [
    ...[...OUTCOMES, 'expected'].map((o) => `<label><input type="checkbox" value="${o}" checked> ${o}</label>`),
    ...SEVERITIES.map((s) => `<label><input type="checkbox" value="${s}" checked> ${s}</label>`),
  ].join('');
  const agentSelect = runs.length > 1 ? `<label>agent <select id="agent">${runs.map((run) => `<option>${h(run.agent)}</option>`).join('')}</select></label>` : '';
  const notRun = runs.map(notRunHtml).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>dhi conformance report</title><style>${CSS}</style></head>
<body>
<h1>dhi conformance report</h1>
<p>Generated ${h(generatedAt)}: <b id="case-count">${caseIds.size}</b> cases, <b id="agent-count">${runs.length}</b> agent${runs.length === 1 ? '' : 's'}.</p>
${summaryTable(runs)}${notRun}${runs.map(expectationsHtml).join('')}
<p id="dhi-jwt"><small>The <code>curl</code> lines of control API requests carry <code>$DHI_JWT</code> (the JWT is never written to a report). Set it with the control API login: <code>${h(jwtLine(runs[0] ?? { controlUrl: 'http://127.0.0.1:8080' }))}</code>. A failed case's <b>Reproduce</b> script does this itself and re-creates the devices the case made (they were deleted after the run).</small></p>
${runs.length > 1 ? matrixTable(runs) : ''}
<h2>Cases</h2>
<div id="filters">${filters} ${agentSelect} — showing <b id="shown-count">${runs[0]?.cases.length ?? 0}</b></div>
${runs.map((run) => `<div class="run" data-agent="${h(run.agent)}">${run.cases.map((r) => caseHtml(run, r)).join('\n')}</div>`).join('\n')}
<script>${SCRIPT}</script>
</body></html>
`;
}
