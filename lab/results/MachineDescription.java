//DEPS com.fasterxml.jackson.core:jackson-databind:2.20.1
// A machine's description, machine.json, written by the study beside its results CSVs.

package lab.results;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JacksonException;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A machine's description, {@code machine.json}: its fields as text, in the file's order (a
 * JSON null is a field not recorded). A field that is not a single value, or not the kind its
 * name says (a number, a boolean), is left out with a line naming file and line; a file that is
 * not a JSON object leaves the whole description out, with its line.
 */
public record MachineDescription(Map<String, String> fields, List<String> problems) {

    /**
     * machine.json's field naming the chapters this CPU could not run, each with its reason
     * ("V12Vector512: … needs AVX-512"): written by the study, shown by the report.
     */
    public static final String NOT_ON_THIS_CPU = "not_run_on_this_cpu";

    public static final Set<String> WHOLE_NUMBER_FIELDS = Set.of("cpu_family", "cpu_model_number", "logical_cores",
            "memory_bytes", "vector_bits", "read_ahead_kb");
    static final Set<String> BOOLEAN_FIELDS = Set.of("avx2", "avx512", "trial");

    public Optional<String> text(String field) {
        return Optional.ofNullable(fields.get(field));
    }

    public Optional<Long> number(String field) {
        return text(field).map(Long::parseLong);
    }

    public boolean flag(String field) {
        return text(field).map(Boolean::parseBoolean).orElse(false);
    }

    /** The machine the description names: CPU model, processors and vector width, when all three are there. */
    Optional<StudyResults.Identity> identity() {
        return text("cpu_model").flatMap(model -> number("logical_cores").flatMap(cores -> number("vector_bits")
                .map(bits -> new StudyResults.Identity(model, cores.intValue(), bits.intValue()))));
    }

    public static MachineDescription read(Path file) {
        if (!Files.isRegularFile(file)) {
            return new MachineDescription(Map.of(), List.of());
        }
        Map<String, String> fields = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        try (Reader reader = StudyResults.withoutByteOrderMark(file); JsonParser json = new JsonFactory().createParser(reader)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                return new MachineDescription(Map.of(), List.of(file + " line " + json.currentLocation().getLineNr()
                        + ": not a JSON object; the machine is described by its rows"));
            }
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String field = json.currentName();
                JsonToken value = json.nextToken();
                int line = json.currentLocation().getLineNr();
                String why = null;
                if (value.isStructStart()) {
                    json.skipChildren();
                    why = "is not a single value";
                } else if (value != JsonToken.VALUE_NULL && WHOLE_NUMBER_FIELDS.contains(field)
                        && (value != JsonToken.VALUE_NUMBER_INT || json.getLongValue() < 0)) {
                    why = "is " + StudyResults.quoted(json.getText()) + ", not a count";
                } else if (value != JsonToken.VALUE_NULL && BOOLEAN_FIELDS.contains(field) && !value.isBoolean()) {
                    why = "is " + StudyResults.quoted(json.getText()) + ", not true or false";
                }
                if (why != null) {
                    problems.add(file + " line " + line + ": left out " + field + ", which " + why);
                } else {
                    fields.put(field, value == JsonToken.VALUE_NULL ? null : json.getText());
                }
            }
        } catch (JacksonException e) {
            return new MachineDescription(Map.of(), List.of(file + " line " + (e.getLocation() == null ? "?" : e.getLocation().getLineNr())
                    + ": not JSON (" + StudyResults.firstLine(e.getOriginalMessage()) + "); the machine is described by its rows"));
        } catch (IOException e) {
            return new MachineDescription(Map.of(), List.of(file + ": cannot be read (" + e.getMessage() + ")"));
        }
        return new MachineDescription(fields, problems);
    }
}
