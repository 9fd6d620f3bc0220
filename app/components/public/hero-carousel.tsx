import { useCallback, useEffect, useState } from 'react';
import { useHydrated } from '~/utils/use-hydrated';

export type HeroSlide = {
  title: string;
  subtitle: string;
  description: string;
  features: [string, string, string];
};

export const CAROUSEL_INTERVAL_MS = 5000;

const BACKGROUNDS = [
  'from-brand-900 via-brand-800 to-brand-600',
  'from-slate-900 via-brand-900 to-brand-700',
  'from-brand-800 via-indigo-800 to-slate-900',
];

/**
 * Without JavaScript every slide is in the page as a horizontally scrolling, snapping row with links
 * to each slide. Once hydrated it becomes a carousel that loops every 5 seconds; using the buttons
 * moves it without stopping the autoplay.
 */
export function HeroCarousel({ slides }: { slides: HeroSlide[] }) {
  const hydrated = useHydrated();
  const [active, setActive] = useState(0);
  const count = slides.length;

  const go = useCallback((index: number) => setActive(((index % count) + count) % count), [count]);

  useEffect(() => {
    if (!hydrated) return;
    // Restarting the timer on every change keeps a full 5 s on a slide picked by hand.
    const timer = setTimeout(() => go(active + 1), CAROUSEL_INTERVAL_MS);
    return () => clearTimeout(timer);
  }, [hydrated, active, go]);

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Highlights"
      className="relative overflow-hidden bg-brand-900 text-white"
    >
      <div
        className={
          hydrated ? 'relative' : 'flex snap-x snap-mandatory overflow-x-auto scroll-smooth'
        }
        aria-live={hydrated ? 'off' : undefined}
        tabIndex={hydrated ? undefined : 0}
        aria-label={hydrated ? undefined : 'Highlights, scroll sideways for more'}
      >
        {slides.map((slide, index) => {
          const hidden = hydrated && index !== active;
          return (
            <div
              key={slide.title}
              id={`hero-slide-${index + 1}`}
              role="group"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${count}`}
              hidden={hidden}
              data-active={hydrated ? index === active : undefined}
              className={`w-full shrink-0 snap-start bg-gradient-to-br ${BACKGROUNDS[index % BACKGROUNDS.length]}`}
            >
              <div className="mx-auto max-w-7xl px-4 pb-32 pt-16 sm:px-16 sm:pb-36 sm:pt-20">
                <p className="text-sm font-semibold uppercase tracking-wider text-accent-400">
                  {slide.subtitle}
                </p>
                <h2
                  className="mt-3 max-w-3xl text-4xl font-extrabold tracking-tight sm:text-5xl"
                  data-slide-title
                >
                  {slide.title}
                </h2>
                <p className="mt-5 max-w-2xl text-lg text-blue-100">{slide.description}</p>
                <ul className="mt-8 flex flex-wrap gap-3" aria-label="Features">
                  {slide.features.map((feature) => (
                    <li
                      key={feature}
                      className="rounded-full bg-white/10 px-4 py-1.5 text-sm font-medium ring-1 ring-white/20"
                    >
                      {feature}
                    </li>
                  ))}
                </ul>
              </div>
            </div>
          );
        })}
      </div>

      <div className="absolute inset-x-0 bottom-16 z-10 flex items-center justify-center gap-3">
        {hydrated ? (
          <>
            <button
              type="button"
              onClick={() => go(active - 1)}
              aria-label="Previous slide"
              className="rounded-full bg-white/15 px-3 py-1.5 text-lg leading-none hover:bg-white/25"
            >
              <span aria-hidden="true">‹</span>
            </button>
            {slides.map((slide, index) => (
              <button
                key={slide.title}
                type="button"
                onClick={() => go(index)}
                aria-label={`Show slide ${index + 1}: ${slide.title}`}
                aria-current={index === active ? 'true' : undefined}
                className={`h-2.5 rounded-full transition-all ${index === active ? 'w-8 bg-accent-500' : 'w-2.5 bg-white/50 hover:bg-white/80'}`}
              />
            ))}
            <button
              type="button"
              onClick={() => go(active + 1)}
              aria-label="Next slide"
              className="rounded-full bg-white/15 px-3 py-1.5 text-lg leading-none hover:bg-white/25"
            >
              <span aria-hidden="true">›</span>
            </button>
          </>
        ) : (
          slides.map((slide, index) => (
            <a
              key={slide.title}
              href={`#hero-slide-${index + 1}`}
              aria-label={`Show slide ${index + 1}: ${slide.title}`}
              className="h-2.5 w-2.5 rounded-full bg-white/60 hover:bg-white"
            />
          ))
        )}
      </div>
    </section>
  );
}
