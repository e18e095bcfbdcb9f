export { createTargetApi, type ClosableTargetApi } from './target-api.js';
