/** Scripted scenarios: YAML journeys through the service (see scenarios/README.md). */
export { runScenarios } from './run-scenarios.js';
export { runScenario } from './run-scenario.js';
export {
  chooseAgency,
  runOrder,
  scenarioOverMaxWait,
  scenarioRequests,
  scenarioWaitPlan,
  scenarioWaits,
  scenarioWaitsMs,
  type AgencyView,
} from './scenario-plan.js';
export { parseScenario, loadScenarioFile, loadScenarios } from './load-scenario.js';
