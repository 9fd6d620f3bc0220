import type { ReactNode } from 'react';
import { HomeLogo } from '~/components/public/logo';
import { useCompany } from '~/utils/use-company';

/** The portal's pages before sign-in: the company's logo over one card (sign-in, links). */
export function PortalCard({ title, children }: { title: string; children: ReactNode }) {
  const company = useCompany();
  return (
    <main className="flex flex-1 items-center justify-center px-4 py-10">
      <div className="w-full max-w-md">
        <HomeLogo name={company.name} />
        <div className="card space-y-4 p-6">
          <h1 className="text-2xl font-bold text-gray-900">{title}</h1>
          {children}
        </div>
      </div>
    </main>
  );
}
