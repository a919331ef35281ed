/**
 * The service's version: the package's (package.json, checked equal by test/unit/release-facts.test.ts) and the OpenAPI
 * document's `info.version`, one number for both. Semantic versioning of the HTTP contract (CHANGELOG.md says what a
 * version promises): a change that can break a client raises the major version and the `/v1` paths with it.
 */
export const SERVICE_VERSION = "1.1.0";
