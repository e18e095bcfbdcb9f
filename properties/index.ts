/** fast-check properties run against the live target. */
export {
  runProperties,
  propertiesRealTimeMs,
  propertiesAgencies,
  propertiesRequests,
  propertiesWriteLimits,
  PROPERTIES,
  type RunPropertiesOptions,
} from './run-properties.js';
export type { PropertyDef, BuiltProperty } from './property-types.js';
