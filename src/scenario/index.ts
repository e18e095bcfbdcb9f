/** Scripted scenarios: YAML journeys through the service (see scenarios/README.md). */
export { runScenarios, type RunScenariosOptions } from './run-scenarios.js';
export { runScenario } from './run-scenario.js';
export { chooseAgency, runOrder, scenarioWaitsMs, type AgencyView } from './scenario-plan.js';
export { parseScenario, loadScenarioFile, loadScenarios, defaultScenarioDir } from './load-scenario.js';
export { STEP_ACTIONS, ANY_WITH_PRODUCT, type Scenario, type Step, type StepAction, type Expectation, type FieldMatcher, type AgencySelector } from './types.js';
