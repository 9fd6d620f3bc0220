import { useNonce } from '~/utils/nonce-provider';
import { usePageText } from './page-text';

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
 * The loop, as an enhancement: every 5 seconds the row scrolls to the next slide (after the last,
 * the first), and the slide links scroll the row instead of jumping the page. Choosing a slide
 * gives it a full 5 seconds; the loop never stops. Written out by hand to stay under 1.5 KB.
 */
export const CAROUSEL_SCRIPT = `(function(){
var row=document.getElementById("hero-slides");if(!row||!row.scrollTo)return;
var count=row.children.length,timer;
function current(){return Math.round(row.scrollLeft/row.clientWidth)}
function schedule(){clearTimeout(timer);timer=setTimeout(function(){go(current()+1)},${CAROUSEL_INTERVAL_MS})}
function go(index){row.scrollTo({left:((index%count+count)%count)*row.clientWidth});schedule()}
row.parentNode.addEventListener("click",function(event){
var link=event.target.closest&&event.target.closest("a[data-slide]");
if(!link)return;event.preventDefault();go(Number(link.getAttribute("data-slide")));
});
schedule();
})();`;

/**
 * The hero: a row of slides that snaps one slide at a time (CSS scroll-snap), so it reads and
 * scrolls without JavaScript and never changes its layout. Each slide carries its own controls
 * (previous, one dot per slide with its own marked, next) as links to the slides, so they are
 * right before any script runs. One small inline script (CAROUSEL_SCRIPT) adds the loop.
 */
export function HeroCarousel({ slides }: { slides: HeroSlide[] }) {
  const nonce = useNonce();
  const { t } = usePageText();
  const count = slides.length;
  const slideId = (index: number) => `hero-slide-${((index + count) % count) + 1}`;
  return (
    <section
      aria-roledescription="carousel"
      aria-label={t('carousel.label')}
      className="relative bg-brand-900 text-white"
    >
      <div
        id="hero-slides"
        className="flex snap-x snap-mandatory overflow-x-auto overscroll-x-contain [scrollbar-width:none] motion-safe:scroll-smooth [&::-webkit-scrollbar]:hidden"
      >
        {slides.map((slide, index) => (
          <div
            key={slide.title}
            id={slideId(index)}
            role="group"
            aria-roledescription="slide"
            aria-label={t('carousel.slide', { n: index + 1, count })}
            className={`relative w-full shrink-0 snap-start snap-always scroll-mt-[100vh] bg-gradient-to-br ${BACKGROUNDS[index % BACKGROUNDS.length]}`}
          >
            <div className="mx-auto max-w-7xl px-4 pb-32 pt-12 sm:px-16 sm:pb-36 sm:pt-20">
              <p className="text-sm font-semibold uppercase tracking-wider text-accent-200">
                {slide.subtitle}
              </p>
              <h2
                className="mt-3 max-w-3xl text-3xl font-extrabold tracking-tight sm:text-5xl"
                data-slide-title
              >
                {slide.title}
              </h2>
              <p className="mt-5 max-w-2xl text-base text-blue-100 sm:text-lg">
                {slide.description}
              </p>
              <ul className="mt-8 flex flex-wrap gap-3" aria-label={t('carousel.features')}>
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
            <div className="absolute inset-x-0 bottom-14 flex items-center justify-center gap-1">
              <a
                href={`#${slideId(index - 1)}`}
                data-slide={index - 1}
                aria-label={t('carousel.previous')}
                className="flex h-10 w-10 items-center justify-center rounded-full bg-white/15 text-xl leading-none hover:bg-white/25"
              >
                <span aria-hidden="true">‹</span>
              </a>
              {slides.map((other, otherIndex) => (
                <a
                  key={other.title}
                  href={`#${slideId(otherIndex)}`}
                  data-slide={otherIndex}
                  aria-label={t('carousel.show', { n: otherIndex + 1, title: other.title })}
                  aria-current={otherIndex === index ? 'true' : undefined}
                  className="group flex h-6 w-6 items-center justify-center"
                >
                  <span
                    className={`h-2.5 rounded-full ${otherIndex === index ? 'w-6 bg-accent-400' : 'w-2.5 bg-white/60 group-hover:bg-white'}`}
                  />
                </a>
              ))}
              <a
                href={`#${slideId(index + 1)}`}
                data-slide={index + 1}
                aria-label={t('carousel.next')}
                className="flex h-10 w-10 items-center justify-center rounded-full bg-white/15 text-xl leading-none hover:bg-white/25"
              >
                <span aria-hidden="true">›</span>
              </a>
            </div>
          </div>
        ))}
      </div>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: CAROUSEL_SCRIPT }} />
    </section>
  );
}
