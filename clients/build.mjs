// npm run build:clients: the TypeScript client with tsc, the Java client with javac + jar
// (only the JDK's own tools, so it builds offline; clients/java/pom.xml builds the same jar
// with Maven, which .ci/run checks).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const run = (cmd, args) => execFileSync(cmd, args, { stdio: 'inherit', cwd: root });

// The TypeScript package builds itself (ESM and CommonJS); Node finds the root's TypeScript.
run(process.execPath, [join(root, 'typescript', 'build.mjs')]);

const javaDir = join(root, 'java');
const build = join(javaDir, 'build');
const sources = [];
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.java')) sources.push(path);
  }
};
walk(join(javaDir, 'src', 'main', 'java'));
rmSync(build, { recursive: true, force: true });
mkdirSync(join(build, 'classes'), { recursive: true });
run('javac', ['--release', '17', '-Xlint:all', '-Werror', '-d', join(build, 'classes'), ...sources]);
// The manifest the pom's jar plugin writes (clients/java/pom.xml is the one place the version lives).
const pom = readFileSync(join(javaDir, 'pom.xml'), 'utf8');
const version = /<artifactId>license-client<\/artifactId>\s*<version>([^<]+)<\/version>/.exec(pom)[1];
const moduleName = /<module.name>([^<]+)<\/module.name>/.exec(pom)[1];
writeFileSync(
  join(build, 'MANIFEST.MF'),
  [
    'Main-Class: dev.licensing.client.Main',
    `Automatic-Module-Name: ${moduleName}`,
    'Implementation-Title: license-client',
    `Implementation-Version: ${version}`,
    '',
  ].join('\n'),
);
run('jar', ['--create', '--file', join(build, 'license-client.jar'), '--manifest', join(build, 'MANIFEST.MF'), '-C', join(build, 'classes'), '.']);
console.log('built clients/typescript/dist and clients/java/build/license-client.jar');
