import { join } from 'node:path';
import { describeEnvironmentMatrix } from '../helpers/environment-matrix';

/** The package's command (bin/), as `npx cdktf-server-hosting` runs it, in every environment of the matrix (issue 60 §3). */
describeEnvironmentMatrix({ name: 'the Node command', argv: () => [process.execPath, join(__dirname, '..', '..', 'bin', 'cdktf-server-hosting')] });
