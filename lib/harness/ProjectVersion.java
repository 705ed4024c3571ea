package lib.harness;

import picocli.CommandLine;

/**
 * What {@code --version} answers, for every chapter and tool: the project's version, the JDK that
 * runs it, and the vector width the kernels get here, since all three change the figures.
 */
public final class ProjectVersion implements CommandLine.IVersionProvider {

    /** The project's version: raise it when a change makes new figures incomparable with old ones. */
    public static final String VERSION = "0.2.0";

    @Override
    public String[] getVersion() {
        return new String[] {describe()};
    }

    /** e.g. {@code haystack-search 0.2.0, JDK 25.0.3+9-LTS (Eclipse Adoptium), 512-bit vectors (AVX-512)} */
    public static String describe() {
        Machine machine = Machine.current();
        String cpu = machine.avx512() ? "AVX-512" : machine.avx2() ? "AVX2" : "neither AVX2 nor AVX-512";
        return "haystack-search " + VERSION + ", JDK " + Runtime.version() + " (" + System.getProperty("java.vm.vendor")
                + "), " + jdk.incubator.vector.LongVector.SPECIES_PREFERRED.vectorBitSize() + "-bit vectors (" + cpu + ")";
    }
}
