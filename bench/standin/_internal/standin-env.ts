/** The variables `bench/standin/profile.yaml` names, from the stand-in's fixture. */
export function standinEnv(fixture: { agencies: { agency_id: string; secret: string; webhook_secret: string }[] }): Record<string, string> {
  const env: Record<string, string> = {};
  for (const a of fixture.agencies) {
    const name = a.agency_id
      .replace(/^agency-/, '')
      .replace(/[^A-Za-z0-9]/g, '_')
      .toUpperCase();
    env[`SVC_STANDIN_${name}_SECRET`] = a.secret;
    env[`SVC_STANDIN_${name}_WEBHOOK_SECRET`] = a.webhook_secret;
  }
  return env;
}
