/** `/`: the landing page for visitors. Signed-in users never see it: the route sends them to /projects. */
import { Hero } from "../features/landing/hero";
import { AboutSection, DocsSection, SecuritySection } from "../features/landing/info-sections";
import { LandingFooter } from "../features/landing/landing-footer";
import { LandingHeader } from "../features/landing/landing-header";
import { CapabilitiesSection, FeaturesSection } from "../features/landing/product-sections";

export function LandingPage() {
  return (
    <div id="top" className="min-h-screen">
      <LandingHeader />
      <main>
        <Hero />
        <FeaturesSection />
        <CapabilitiesSection />
        <DocsSection />
        <AboutSection />
        <SecuritySection />
      </main>
      <LandingFooter />
    </div>
  );
}
