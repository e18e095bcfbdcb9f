/**
 * A YAML or JSON parser's message without the excerpt of the file it
 * quotes: that line may hold a secret (a profile's agency secret, a key in
 * an OpenAPI document). The line and column stay, so the user can find it.
 */
export function withoutExcerpt(message: string): string {
  return message.replace(/(at line \d+, column \d+):[\s\S]*$/, '$1').replace(/, [\s\S]* is not valid JSON$/, ' (not valid JSON)');
}
