// A button that opens the file picker for one JSON file and hands the file over (the ablation's
// Import…, the recorded curves' "Load a curves file…").

import { useRef, type ReactNode } from 'react';

export function JsonFileButton({
  testId,
  inputTestId,
  title,
  disabled,
  onFile,
  children,
}: {
  testId: string;
  inputTestId: string;
  title?: string;
  disabled?: boolean;
  onFile: (file: File) => void | Promise<void>;
  children: ReactNode;
}) {
  const fileInput = useRef<HTMLInputElement>(null);
  return (
    <>
      <button
        className="small-button"
        data-testid={testId}
        title={title}
        disabled={disabled}
        onClick={() => fileInput.current?.click()}
      >
        {children}
      </button>
      <input
        ref={fileInput}
        type="file"
        accept=".json,application/json"
        hidden
        data-testid={inputTestId}
        onChange={async (e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (file) await onFile(file);
        }}
      />
    </>
  );
}
