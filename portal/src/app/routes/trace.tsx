// Trace a leaked jar: drop (or pick) it, the service finds the download it came from by its
// signed entry or a stamped constant; a jar it did not stamp is "Not a stamped download".
import { useState } from 'react';
import { PageHeader } from '../../components/page-header';
import { ErrorMessage } from '../../components/status';
import { useTraceJar } from '../../features/releases/api/trace-jar';
import { FileDropZone } from '../../features/releases/components/file-drop-zone';
import { TraceResultCard } from '../../features/releases/components/trace-result';
import { UploadProgress } from '../../features/releases/components/upload-progress';
import { useCan } from '../../hooks/use-session';
import { ApiError } from '../../lib/api-client';

export function TracePage() {
  const { mutation, progress } = useTraceJar();
  const [name, setName] = useState('');
  const links = { license: useCan('licenses:read'), customer: useCan('customers:read'), release: useCan('products:read') };
  const notStamped = mutation.error instanceof ApiError && mutation.error.status === 404;

  return (
    <>
      <PageHeader title="Trace a leaked jar" />
      <section className="card">
        <p>
          Every jar downloaded through <code>POST /releases/download</code> is stamped for its license. Drop a copy found elsewhere to see which
          license, customer and download it came from. The jar is read, not kept.
        </p>
        <FileDropZone
          label="Choose a jar"
          hint="Drop the jar here."
          accept=".jar,.zip,application/java-archive,application/zip"
          disabled={mutation.isPending}
          onFile={(file) => {
            setName(file.name);
            mutation.mutate(file);
          }}
        />
        {progress && mutation.isPending ? <UploadProgress name={name} progress={progress} /> : null}
      </section>
      {mutation.data ? <TraceResultCard result={mutation.data} links={links} /> : null}
      {notStamped ? (
        <div className="alert alert-warning" role="alert" data-testid="trace-not-found">
          <strong>Not a stamped download.</strong> Nothing in {name} names a download of this service: it was not downloaded through it, or its
          stamps were removed.
        </div>
      ) : (
        <ErrorMessage error={mutation.error} title={`${name} could not be traced:`} />
      )}
    </>
  );
}
