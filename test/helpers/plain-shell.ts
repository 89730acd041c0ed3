// The variables by which npm, pnpm and yarn say they ran a command (src/cli/this-package.ts): not
// the tests' to inherit from whatever started jest. A test of a launcher sets them itself.
for (const name of ['npm_command', 'npm_config_user_agent', 'npm_lifecycle_event', 'npm_execpath']) delete process.env[name];
