// jest with ts-jest, as the test above assumes: npm install --save-dev jest ts-jest @types/jest typescript
module.exports = {
  testMatch: ['<rootDir>/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: { module: 'commonjs', target: 'ES2022', esModuleInterop: true, strict: true, types: ['jest', 'node'] } }] },
  // terraform init and apply run inside the test.
  testTimeout: 300_000,
};
