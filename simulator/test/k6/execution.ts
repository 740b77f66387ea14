// Stand-in for k6/execution: the VU's id and the scenario's iteration number, set by the runner.
export default {
  vu: { idInTest: 1, iterationInScenario: 0 },
  scenario: { name: 'stand-in', iterationInTest: 0 },
};
